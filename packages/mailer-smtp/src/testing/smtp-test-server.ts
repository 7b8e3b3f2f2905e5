import { type SMTPServerOptions, SMTPServer } from 'smtp-server';
import { parseMessage, type ParsedMessage } from './parse-message';

export interface ReceivedSmtpMessage extends ParsedMessage {
  raw: Buffer;
  envelope: { from: string; to: string[] };
}

export interface TestSmtpServer {
  port: number;
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  messages: ReceivedSmtpMessage[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on an ephemeral port of 127.0.0.1: no TLS, no auth
 * required. It keeps every accepted message; `handlers` can override the session callbacks (to refuse).
 */
export async function startSmtpServer(handlers: Partial<SMTPServerOptions> = {}): Promise<TestSmtpServer> {
  const messages: ReceivedSmtpMessage[] = [];
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        const envelope = session.envelope;
        messages.push({
          ...parseMessage(raw),
          raw,
          envelope: {
            from: envelope.mailFrom ? envelope.mailFrom.address : '',
            to: envelope.rcptTo.map((r) => r.address),
          },
        });
        callback();
      });
    },
    ...handlers,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('the SMTP server has no port');
  return {
    port: address.port,
    url: `smtp://127.0.0.1:${address.port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An Error the smtp-server callbacks turn into that SMTP reply. */
export function smtpReply(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}
