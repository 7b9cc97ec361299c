import { describe, expect, test } from "bun:test";
import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import { certInfo, checkPair, makeRsaKeyPair, makeSelfSigned } from "../../../appliance/ops/certificate.ts";

/** Throwaway ECDSA P-256 pair made with openssl for this test only (valid until 2126): forge cannot make EC. */
const EC_CERT = `-----BEGIN CERTIFICATE-----
MIIBmDCCAT6gAwIBAgIUKeZ0RnubYWn/WXFuRhMEHhApiZQwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKZWMuZXhhbXBsZTAgFw0yNjExMjIxMDMxMTVaGA8yMTI2MTAy
OTEwMzExNVowFTETMBEGA1UEAwwKZWMuZXhhbXBsZTBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABOdn+hnP2f0hkXNQebYyQbm2WmPwe9MK8sfbSFZIL4Vhtk9oZib3
1+ZuOWGcA4C2Hb0py7l7to7YPbz6k21UriujajBoMB0GA1UdDgQWBBQWU43GLbun
UNLG8WxhpHb3LGpYPzAfBgNVHSMEGDAWgBQWU43GLbunUNLG8WxhpHb3LGpYPzAP
BgNVHRMBAf8EBTADAQH/MBUGA1UdEQQOMAyCCmVjLmV4YW1wbGUwCgYIKoZIzj0E
AwIDSAAwRQIhAI1uHLniRRYbjfKKicRx9CUWbROLGTdYOxBfCLP5z8adAiA7gmsw
ugrMoxvjN5WOaAbJyTmbYmNYt8T5J0NzOnME/w==
-----END CERTIFICATE-----
`;
const EC_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgGwyr/iDgPvrUB5cj
QUNEUNXJli6CmKv+UGDalgDUNLChRANCAATnZ/oZz9n9IZFzUHm2MkG5tlpj8HvT
CvLH20hWSC+FYbZPaGYm99fmbjlhnAOAth29Kcu5e7aO2D28+pNtVK4r
-----END PRIVATE KEY-----
`;

const made = makeSelfSigned("pithead.local");
const other = makeSelfSigned("other.local");

function pemBody(pem: string): string {
  return pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
}

describe("self-signed certificate", () => {
  test("is RSA 2048, about 10 years, with SAN localhost and 127.0.0.1", () => {
    const x = new X509Certificate(made.cert);
    expect(x.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const years = (new Date(x.validTo).getTime() - new Date(x.validFrom).getTime()) / (365.25 * 86400e3);
    expect(years).toBeGreaterThan(9.9);
    expect(years).toBeLessThan(10.1);
    expect(x.subjectAltName).toContain("DNS:localhost");
    expect(x.subjectAltName).toContain("IP Address:127.0.0.1");
    expect(x.subjectAltName).toContain("DNS:pithead.local");
    expect(x.checkPrivateKey(createPrivateKey(made.key))).toBe(true);
  });

  test("every random serial makes a readable certificate: a first byte of 0x00..0x0f once made 1 in 16 unreadable", () => {
    for (const first of [0x00, 0x01, 0x0f, 0x80, 0xff]) {
      const serial = new Uint8Array(16).fill(0x00);
      serial[0] = first;
      const x = new X509Certificate(makeSelfSigned("serial.example", serial).cert);
      expect(x.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
    }
  });

  test("two certificates never share a key or serial", () => {
    expect(made.key).not.toBe(other.key);
    expect(new X509Certificate(made.cert).serialNumber).not.toBe(
      new X509Certificate(other.cert).serialNumber,
    );
  });
});

describe("checkPair", () => {
  test("round trip: the made pair is accepted with its details", () => {
    const r = checkPair(made.cert, made.key);
    if (!r.ok) throw new Error(r.message);
    expect(r.subject).toContain("CN=pithead.local");
    expect(r.selfSigned).toBe(true);
    expect(r.expired).toBe(false);
    expect(r.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(new Date(r.notAfter).getUTCFullYear()).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 9);
    expect(r.certPem).toBe(made.cert);
    expect(r.chainLength).toBe(1);
  });

  test("a key of another certificate is refused", () => {
    expect(checkPair(made.cert, other.key)).toMatchObject({ ok: false, reason: "key_mismatch" });
  });

  test("garbage is refused, for either part", () => {
    expect(checkPair("hello", made.key)).toMatchObject({ ok: false, reason: "cert_malformed" });
    expect(checkPair("", made.key)).toMatchObject({ ok: false, reason: "cert_malformed" });
    expect(checkPair(made.cert, "hello")).toMatchObject({ ok: false, reason: "key_malformed" });
    const broken = made.cert.replace(/(\n[A-Za-z0-9+/]{10})[A-Za-z0-9+/]{10}/, "$1!!!!!!!!!!");
    expect(checkPair(broken, made.key)).toMatchObject({ ok: false, reason: "cert_malformed" });
    // a certificate where a key is expected
    expect(checkPair(made.cert, made.cert)).toMatchObject({ ok: false, reason: "key_malformed" });
  });

  test("accepts DER, bare base64, a chain after the leaf, and a PKCS#1 key", () => {
    const der = new Uint8Array(new X509Certificate(made.cert).raw);
    expect(checkPair(der, made.key).ok).toBe(true);
    expect(checkPair(pemBody(made.cert), made.key).ok).toBe(true);
    const chained = checkPair(made.cert + other.cert, made.key);
    expect(chained).toMatchObject({ ok: true, chainLength: 2 });
    const pkcs1 = createPrivateKey(made.key).export({ type: "pkcs1", format: "pem" }).toString();
    expect(pkcs1).toContain("BEGIN RSA PRIVATE KEY");
    expect(checkPair(made.cert, pkcs1).ok).toBe(true);
  });

  test("refuses an encrypted key instead of prompting", () => {
    const encrypted = createPrivateKey(made.key)
      .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "secret" })
      .toString();
    expect(checkPair(made.cert, encrypted)).toMatchObject({ ok: false, reason: "key_malformed" });
  });

  test("accepts EC certificates (Let's Encrypt issues ECDSA) and refuses mixed key types", () => {
    expect(checkPair(EC_CERT, EC_KEY)).toMatchObject({ ok: true, subject: "CN=ec.example", expired: false });
    expect(checkPair(made.cert, EC_KEY)).toMatchObject({ ok: false, reason: "key_mismatch" });
    expect(checkPair(EC_CERT, made.key)).toMatchObject({ ok: false, reason: "key_mismatch" });
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const otherEc = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(checkPair(EC_CERT, otherEc)).toMatchObject({ ok: false, reason: "key_mismatch" });
  });

  test("CRLF uploads are accepted and stored with LF", () => {
    const r = checkPair(made.cert.replace(/\n/g, "\r\n"), made.key.replace(/\n/g, "\r\n"));
    expect(r).toMatchObject({ ok: true, certPem: made.cert });
  });
});

describe("certInfo and makeRsaKeyPair", () => {
  test("certInfo reads a stored certificate and throws on garbage", () => {
    const info = certInfo(made.cert);
    expect(info.subject).toBe("CN=pithead.local, O=Pithead");
    expect(info.altNames).toContain("DNS:localhost");
    expect(() => certInfo("nope")).toThrow();
  });

  test("makeRsaKeyPair gives a matching 2048-bit PEM pair", () => {
    const pair = makeRsaKeyPair();
    expect(pair.publicKeyPem).toStartWith("-----BEGIN PUBLIC KEY-----");
    expect(pair.privateKeyPem).toStartWith("-----BEGIN PRIVATE KEY-----");
    const pub = createPublicKey(pair.publicKeyPem);
    expect(pub.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const derived = createPublicKey(createPrivateKey(pair.privateKeyPem)).export({
      type: "spki",
      format: "pem",
    });
    expect(derived.toString()).toBe(pair.publicKeyPem);
  });
});
