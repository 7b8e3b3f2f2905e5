export { createHostApp } from './app';
export { hostAuthenticator } from './formloom-auth';
export { HostSessions, type HostUser } from './host-sessions';
export { startEmbedExample, DEMO_SESSIONS, type EmbedExample } from './start';
