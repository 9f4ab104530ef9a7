/** Which SMTP hosts a project may name, and what an admin is told when sending fails. */
import { describe, expect, it } from "vitest";
import { PrivateSmtpHostError, SmtpDeadlineError, resolveSmtpHost, smtpFailureSummary } from "../../src/domain/emails/smtp-guard.ts";
import { isPrivateAddress } from "../../src/lib/network-addresses.ts";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.9",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "::1",
    "::",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "not an address",
  ])("%s is private or local", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is public", (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe("resolveSmtpHost", () => {
  it("refuses private addresses unless allowed, and returns the address to connect to", async () => {
    await expect(resolveSmtpHost("127.0.0.1", false)).rejects.toBeInstanceOf(PrivateSmtpHostError);
    await expect(resolveSmtpHost("localhost", false)).rejects.toBeInstanceOf(PrivateSmtpHostError);
    expect(await resolveSmtpHost("127.0.0.1", true)).toBe("127.0.0.1");
    expect(await resolveSmtpHost("93.184.216.34", false)).toBe("93.184.216.34");
  });
});

describe("smtpFailureSummary", () => {
  it("names what went wrong without repeating the remote server's words", () => {
    const banner = Object.assign(new Error("Invalid greeting. response=+OK redis-secret-banner"), { code: "EPROTOCOL" });
    expect(smtpFailureSummary(banner)).toBe("The server did not speak SMTP as expected.");
    expect(smtpFailureSummary(banner)).not.toContain("redis");
    expect(smtpFailureSummary(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toMatch(/ECONNREFUSED/);
    expect(smtpFailureSummary(Object.assign(new Error("535 bad"), { code: "EAUTH" }))).toMatch(/username or password/);
    expect(smtpFailureSummary(Object.assign(new Error("550 secret text"), { responseCode: 550 }))).toBe(
      "The SMTP server refused the message (reply code 550).",
    );
    expect(smtpFailureSummary(new SmtpDeadlineError(60))).toBe("The SMTP exchange took longer than 60 s.");
    expect(smtpFailureSummary(new Error("anything"))).toBe("Sending through the SMTP server failed.");
  });
});
