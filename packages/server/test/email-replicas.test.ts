/**
 * Two replicas sending from one PostgreSQL queue at the same time: every
 * message goes out exactly once. PostgreSQL only (an embedded database
 * belongs to one process).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { insertQueuedEmail } from "../src/domain/emails/queue.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";
import { startSmtpPeer, type SmtpPeer } from "./smtp-peer.ts";

const onPostgres = process.env.LATCHKEY_TEST_DB === "postgres";

let peer: SmtpPeer;
let a: TestServer;
let b: TestServer;
let project: Project;

beforeAll(async () => {
  if (!onPostgres) return;
  peer = await startSmtpPeer();
  const email = { host: "127.0.0.1", port: peer.port, username: "", password: "", senderEmail: "noreply@example.com", senderName: null };
  a = await createTestServer({ email });
  b = await createTestServer({ email }, { replicaOf: a });
  project = await createProject(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await peer?.close();
});

it.runIf(onPostgres)("two replicas draining one queue send each of 40 messages exactly once", async () => {
  const subjects = Array.from({ length: 40 }, (_, i) => `Shared queue ${i}`);
  await Promise.all(
    subjects.map((subject) =>
      insertQueuedEmail(a.instance.services.db, project.id, { to: ["x@example.com"], subject, html: subject }, a.clock.date()),
    ),
  );
  const [byA, byB] = await Promise.all([a.instance.services.emails.flush(), b.instance.services.emails.flush()]);
  for (const subject of subjects) await peer.waitFor((m) => m.subject === subject);
  const arrived = peer.inbox.filter((m) => m.subject?.startsWith("Shared queue "));
  expect(arrived).toHaveLength(40);
  expect(new Set(arrived.map((m) => m.subject)).size).toBe(40);
  // No message was handled twice (the background polls may have handled some of them).
  expect(byA + byB).toBeLessThanOrEqual(40);
});
