/**
 * A real SMTP server on loopback for tests (smtp-server), keeping every
 * message it accepts, parsed (mailparser). `refuseWith` makes it refuse
 * RCPT TO for a while (4xx) or for good (5xx), as real servers do.
 */
import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SmtpPeer {
  port: number;
  inbox: ParsedMail[];
  /** Resolves with the next message to arrive (or one already waiting that matches). */
  waitFor(match: (mail: ParsedMail) => boolean, timeoutMillis?: number): Promise<ParsedMail>;
  /** Refuse RCPT TO with this SMTP code (4xx: try later; 5xx: never), or accept (null). */
  refuseWith: 451 | 550 | null;
  /** The usernames that logged in. */
  logins: string[];
  close(): Promise<void>;
}

/**
 * `requireAuth`: refuse mail until the client logs in with these credentials,
 * over plain text (no STARTTLS), as a local Mailpit or Inbucket with
 * authentication on does. `host`: the address to listen on (default loopback).
 */
export async function startSmtpPeer(
  options: { requireAuth?: { username: string; password: string }; host?: string } = {},
): Promise<SmtpPeer> {
  const { requireAuth, host = "127.0.0.1" } = options;
  const inbox: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const peer: SmtpPeer = {
    port: 0,
    inbox,
    refuseWith: null,
    logins: [],
    waitFor(match, timeoutMillis = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = inbox.find(match);
          if (!found) return false;
          waiters.delete(check as () => void);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check as () => void);
          reject(new Error(`No matching e-mail within ${timeoutMillis} ms (inbox: ${inbox.map((m) => m.subject).join(", ")})`));
        }, timeoutMillis);
        if (!check()) waiters.add(check as () => void);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: !requireAuth,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (requireAuth && auth.username === requireAuth.username && auth.password === requireAuth.password) {
        peer.logins.push(auth.username ?? "");
        return callback(null, { user: auth.username });
      }
      callback(Object.assign(new Error("Invalid username or password (test peer)"), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      const code = peer.refuseWith;
      callback(
        code
          ? Object.assign(new Error(code === 451 ? "Try again later (test peer)" : "Mailbox unavailable (test peer refuses)"), {
              responseCode: code,
            })
          : undefined,
      );
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          for (const waiter of [...waiters]) waiter();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  peer.port = (server.server.address() as AddressInfo).port;
  return peer;
}
