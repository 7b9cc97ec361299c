/**
 * HTTPS from the first start (issue 8): beside plain HTTP the appliance serves its console over HTTPS
 * with the certificate it made at the first start; the API names the port and the certificate's
 * fingerprint, which must be the one actually served (read here with node:tls, apart from the code).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { makeSelfSigned } from "../../appliance/ops/certificate.ts";
import { startTestAppliance, type TestAppliance } from "../support/appliance.ts";
import { servedFingerprint } from "../support/tls-peer.ts";

const served = (port: number) => servedFingerprint(`https://127.0.0.1:${port}`);

interface Tls {
  enabled: boolean;
  port: number;
  https_port: number;
  fingerprint: string;
}

let t: TestAppliance;
beforeAll(async () => {
  t = await startTestAppliance();
});
afterAll(() => t.close());

test("the HTTPS listener answers with the stored certificate, whose fingerprint the API gives", async () => {
  const tls = (await t.client.get<Tls>("/api/web/tls")).body;
  expect(tls.enabled).toBe(false);
  expect(tls.https_port).toBeGreaterThan(0);
  expect(tls.https_port).not.toBe(tls.port);
  expect(await served(tls.https_port)).toBe(tls.fingerprint);
  // the certificate made at the first start is the one stored (GET /api/cert describes the stored PEM)
  const cert = (await t.client.get<{ builtin: boolean; fingerprint: string }>("/api/cert")).body;
  expect(cert).toMatchObject({ builtin: true, fingerprint: tls.fingerprint });
  // the same console and API over HTTPS, and the public call the login page's banner uses
  const secure = await fetch(`https://127.0.0.1:${tls.https_port}/api/_/https`, {
    tls: { rejectUnauthorized: false },
  });
  expect(await secure.json()).toEqual({ port: tls.https_port });
  const page = await fetch(`https://127.0.0.1:${tls.https_port}/login`, {
    tls: { rejectUnauthorized: false },
  });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("<!doctype html>");
});

test("an uploaded certificate is served on the HTTPS port while plain HTTP stays up", async () => {
  const before = (await t.client.get<Tls>("/api/web/tls")).body;
  const pair = makeSelfSigned("farm.example");
  const uploaded = new X509Certificate(pair.cert).fingerprint256;
  expect((await t.client.post("/api/cert/upload", pair)).status).toBe(200);
  for (let i = 0; i < 100 && (await served(before.https_port).catch(() => "")) !== uploaded; i++)
    await Bun.sleep(100);
  expect(await served(before.https_port)).toBe(uploaded);
  const after = (await t.client.get<Tls>("/api/web/tls")).body;
  expect(after).toMatchObject({ https_port: before.https_port, port: before.port, fingerprint: uploaded });
});

test("an HTTPS port that cannot be bound is logged and leaves the console on HTTP", async () => {
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const other = await startTestAppliance(undefined, true, {}, ["--https-port", String(taken.port)]);
  try {
    const tls = (await other.client.get<Tls>("/api/web/tls")).body;
    expect(tls.https_port).toBe(0);
    expect(other.app.httpsUrl()).toBe("");
    const errors = (await other.client.get<{ message: string }[]>("/api/error/log")).body;
    expect(errors.some((e) => e.message.includes(`HTTPS console not offered on port ${taken.port}`))).toBe(
      true,
    );
  } finally {
    await other.close();
    taken.stop(true);
  }
});
