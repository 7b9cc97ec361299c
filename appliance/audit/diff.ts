/**
 * old → new for the audit log: both sides are flattened to dotted paths (`wallets[0].addr`,
 * `setting.sd`) and compared leaf by leaf. Secrets (passwords, tokens, keys) are never written: a
 * changed secret shows as REDACTED on both sides (empty stays empty), so the log says that it
 * changed but not to what.
 */
export type AuditValue = string | number | boolean | null;

export interface FieldChange {
  field: string;
  old: AuditValue;
  new: AuditValue;
}

export const REDACTED = "[redacted]";

/** Bookkeeping, not configuration: ids and timestamps the store sets itself. */
const IGNORED = new Set(["id", "server_id", "position", "created_at", "updated_at"]);
const SECRET = /(password|passwd|token|secret|key|hash)$/i;
/** a wallet address is well under this; a certificate is not, and is summarised instead */
const MAX_TEXT = 300;

function flatten(value: unknown, prefix: string, out: Map<string, AuditValue>): void {
  if (value === undefined) return;
  if (value === null || typeof value !== "object") {
    out.set(prefix, leaf(value));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(prefix, "[]");
    value.forEach((v, i) => {
      flatten(v, `${prefix}[${i}]`, out);
    });
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (IGNORED.has(k)) continue;
    flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
}

function leaf(v: unknown): AuditValue {
  if (v === null || typeof v === "number" || typeof v === "boolean") return v;
  const text = String(v);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text;
}

/** an empty secret is shown as empty: "set where there was none" is worth seeing */
const redact = (v: AuditValue): AuditValue => (v === null || v === "" ? v : REDACTED);

function isSecret(field: string): boolean {
  const last =
    field
      .replace(/\[\d+\]$/, "")
      .split(".")
      .pop() ?? "";
  return SECRET.test(last);
}

/** The fields that differ between before and after (null before: created; null after: removed). */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const a = new Map<string, AuditValue>();
  const b = new Map<string, AuditValue>();
  flatten(before ?? undefined, "", a);
  flatten(after ?? undefined, "", b);
  const fields = [...new Set([...a.keys(), ...b.keys()])];
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const o = a.has(field) ? (a.get(field) as AuditValue) : null;
    const n = b.has(field) ? (b.get(field) as AuditValue) : null;
    if (o === n) continue;
    const name = field || "value";
    changes.push(
      isSecret(name) ? { field: name, old: redact(o), new: redact(n) } : { field: name, old: o, new: n },
    );
  }
  return changes;
}
