/**
 * Writing the audit log from the API: each route that changes configuration hands over the object
 * before and after the change (the stores return both), and the diff with secrets redacted is kept
 * with who called (credential, session, address) and what (the route and a readable object name).
 */
import { diff } from "../audit/diff.ts";
import type { AuditCredential } from "../store/audit-log.ts";
import type { AppContext } from "./app-context.ts";
import type { Credential } from "./credential.ts";
import type { RequestInfo } from "./router.ts";

function who(c: Credential): { credential: AuditCredential; session: string } {
  if (c.kind === "admin") return { credential: "admin", session: c.session };
  return { credential: c.kind === "public" ? "none" : c.kind, session: "" };
}

/**
 * A change made: kept when some field differs (a save that changed nothing is not a change). `detail`
 * is what the operator wrote about it (the reason for a downgrade).
 */
export function audit(r: RequestInfo, object: string, before: unknown, after: unknown, detail = ""): void {
  const changes = diff(before, after);
  if (changes.length === 0) return;
  r.app.audit.append({
    ...who(r.credential),
    address: r.address,
    action: r.action,
    object,
    outcome: "changed",
    detail,
    changes,
  });
}

/** An attempt the appliance refused (a token outside its scope, a stale session, a wrong password). */
export function auditRefusal(
  app: AppContext,
  credential: Credential,
  address: string,
  action: string,
  detail: string,
): void {
  app.audit.append({ ...who(credential), address, action, object: "", outcome: "refused", detail });
}
