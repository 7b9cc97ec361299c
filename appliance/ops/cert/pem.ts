/**
 * Normalising uploaded certificate and key text. Operators upload .crt files that are PEM, DER, or base64
 * without armour, often with a chain after the leaf; everything is turned into PEM blocks first so the
 * rest of the code and Bun.serve only ever see PEM.
 */

/** Uploads larger than this are not certificates; refusing early keeps parsing cheap. */
export const MAX_PEM_BYTES = 256 * 1024;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

export interface PemBlock {
  label: string;
  pem: string;
}

export function pemBlocks(text: string): PemBlock[] {
  // Windows uploads and forge both write CRLF; one line ending keeps stored PEM comparable.
  const lf = text.replace(/\r\n?/g, "\n");
  return [...lf.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1] ?? "", pem: `${m[0].trim()}\n` }));
}

export function derToPem(der: Uint8Array, label: string): string {
  const b64 = Buffer.from(der).toString("base64");
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/**
 * Text for the given upload: PEM stays as is; binary that starts like DER (an ASN.1 SEQUENCE, 0x30)
 * and bare base64 are wrapped as one PEM block with `label`. Returns null for anything else.
 */
export function toPemText(input: string | Uint8Array, label: string): string | null {
  if (typeof input !== "string") {
    if (input.byteLength > MAX_PEM_BYTES) return null;
    if (input[0] === 0x30) return derToPem(input, label);
    return toPemText(new TextDecoder().decode(input), label);
  }
  if (input.length > MAX_PEM_BYTES) return null;
  if (input.includes("-----BEGIN ")) return input;
  const compact = input.replace(/\s+/g, "");
  if (compact.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const der = Buffer.from(compact, "base64");
  return der[0] === 0x30 ? derToPem(der, label) : null;
}
