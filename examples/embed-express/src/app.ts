import express, { type Express } from 'express';
import type { Formloom } from '@formloom/core';
import { createFormloomRouter, createPublicPagesRouter } from '@formloom/express';
import { builderPages } from './builder-page';
import { hostAuthenticator } from './formloom-auth';
import type { HostSessions, HostUser } from './host-sessions';

/**
 * A host application with its own routes, body parsing and sessions, and Formloom's API mounted at
 * `/api/v1` behind the same sessions.
 */
export function createHostApp(options: { formloom: Formloom; sessions: HostSessions; demoUsers?: ReadonlyMap<string, HostUser> }): Express {
  const { formloom, sessions } = options;
  const app = express();

  // Mounted first on purpose: its JSON parser is scoped to its own routes and leaves the host's alone.
  app.use('/api/v1', createFormloomRouter({ formloom, authenticate: hostAuthenticator(sessions, formloom.accounts) }));

  // Respondents' pages and the element's files (the builder's preview uses /embed.js), and the builder in a host page.
  app.use(createPublicPagesRouter({ formloom }));
  app.use(builderPages(sessions, options.demoUsers ?? new Map()));

  app.get('/', (_req, res) => {
    res.type('text').send('Host app: GET /me, POST /notes, and Formloom under /api/v1\n');
  });
  app.get('/me', sessions.required(), (_req, res) => {
    res.json(res.locals.user as HostUser);
  });
  // The host keeps note bodies verbatim, whatever their content type.
  const notes: string[] = [];
  app.post('/notes', sessions.required(), express.text({ type: '*/*' }), (req, res) => {
    notes.push(String(req.body));
    res.status(201).json({ note: req.body, count: notes.length });
  });
  return app;
}
