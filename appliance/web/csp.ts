/**
 * The console's Content-Security-Policy. Scripts come only from the appliance itself, plus the one
 * inline boot script of index.html, allowed by its hash (computed from the file as built, so a
 * rebuilt console needs no edit here); styles may be inline because twind writes them at run time.
 * Nothing may frame the console, and it talks to no other origin (group control goes through it).
 */
import { createHash } from "node:crypto";

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

export function contentSecurityPolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (m) =>
      `'sha256-${createHash("sha256")
        .update(m[1] ?? "")
        .digest("base64")}'`,
  );
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
