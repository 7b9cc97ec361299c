/**
 * Group control's TLS: a remote's certificate is read once, shown to the operator and pinned (trust on
 * first use); every later connection trusts that certificate alone and must present exactly it. The
 * check runs inside the handshake (fetch's checkServerIdentity with the pinned certificate as the
 * trust anchor), so the API token is never written to a connection that presented another one.
 */
import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import { connect, rootCertificates, type PeerCertificate as TlsPeer } from "node:tls";
import type { RemotePin } from "../../store/remote-clients.ts";

export interface PeerCertificate extends RemotePin {
  subject: string;
  notAfter: string;
}

/** The remote presented a certificate other than the pinned one (or pinning is impossible). */
export class PinError extends Error {
  constructor(
    readonly reason: "fingerprint" | "https",
    /** what the remote presented, when it was read */
    readonly presented = "",
  ) {
    super(
      reason === "https"
        ? "group control talks to remotes over https only"
        : `the remote presented certificate ${presented}, not the pinned one`,
    );
  }
}

/** host and port of an https:// address; a plain http:// one is refused. */
function endpoint(address: string): { host: string; port: number } {
  const url = new URL(address);
  if (url.protocol !== "https:") throw new PinError("https");
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 443) };
}

/**
 * Reads the certificate the server at `address` presents, without trusting it: the first step of
 * trust on first use, and the diagnosis when a pinned connection fails.
 */
export function readPeerCertificate(address: string, timeoutMs: number): Promise<PeerCertificate> {
  const { host, port } = endpoint(address);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port,
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: false,
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no TLS handshake with ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      const raw = socket.getPeerCertificate().raw;
      socket.destroy();
      if (!raw || raw.length === 0) {
        reject(new Error(`${host}:${port} presented no certificate`));
        return;
      }
      const cert = new X509Certificate(raw);
      resolve({
        fingerprint: cert.fingerprint256,
        certificate: cert.toString(),
        subject: cert.subject.split("\n").filter(Boolean).join(", "),
        notAfter: new Date(cert.validTo).toISOString(),
      });
    });
  });
}

/** A self-signed pin is its own anchor; a CA-issued one also needs the roots to verify its chain. */
function anchors(pin: RemotePin): string[] {
  const cert = new X509Certificate(pin.certificate);
  return cert.subject === cert.issuer ? [pin.certificate] : [pin.certificate, ...rootCertificates];
}

/**
 * fetch over a connection that presented the pinned certificate, or a PinError naming what was
 * presented instead. Redirects are not followed: they could lead the token elsewhere.
 */
export async function pinnedFetch(
  pin: RemotePin,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  endpoint(url);
  try {
    return await fetch(url, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      tls: {
        ca: anchors(pin),
        // the fingerprint is the remote's identity: host names of a LAN box's certificate rarely match
        checkServerIdentity: (_host: string, cert: TlsPeer) =>
          cert.fingerprint256 === pin.fingerprint
            ? undefined
            : new PinError("fingerprint", cert.fingerprint256),
      },
    });
  } catch (err) {
    if (err instanceof PinError) throw err;
    // a certificate the pinned anchor does not verify fails before checkServerIdentity: say which it was
    const presented = await readPeerCertificate(url, timeoutMs).catch(() => null);
    if (presented && presented.fingerprint !== pin.fingerprint)
      throw new PinError("fingerprint", presented.fingerprint);
    throw err;
  }
}
