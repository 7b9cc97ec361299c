import type { FieldChange } from "../../audit/diff.ts";
import { encodeCsv } from "../../io/csv.ts";
import type { AuditEntry, AuditQuery } from "../../store/audit-log.ts";
import { badRequest } from "../errors.ts";
import type { Route } from "../router.ts";

const MAX_PAGE = 500;
/** an export is the whole log within the filter; 90 days of a busy farm stay well under this */
const MAX_EXPORT = 100_000;

function query(url: URL, maxLimit: number, defaultLimit: number): AuditQuery {
  const num = (name: string): number | undefined => {
    const text = url.searchParams.get(name);
    if (text === null || text === "") return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) throw badRequest("lang.err.params", { field: name });
    return n;
  };
  return {
    from: num("from"),
    to: num("to"),
    q: url.searchParams.get("q")?.trim() || undefined,
    limit: Math.min(num("limit") ?? defaultLimit, maxLimit) || defaultLimit,
    offset: num("offset") ?? 0,
  };
}

function view(e: AuditEntry) {
  return { ...e, at: new Date(e.at).toISOString(), changes: JSON.parse(e.changes) as FieldChange[] };
}

const show = (v: FieldChange["old"]): string => (v === null ? "∅" : String(v));

/** The audit log of configuration changes (design.md Security): a page with a filter, and a CSV export. */
export const auditRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/audit",
    handler: ({ app, url }) => {
      const { total, items } = app.audit.list(query(url, MAX_PAGE, 100));
      return Response.json({ total, items: items.map(view) });
    },
  },
  {
    method: "GET",
    path: "/api/audit/export",
    handler: ({ app, url }) => {
      const { items } = app.audit.list({ ...query(url, MAX_EXPORT, MAX_EXPORT), offset: 0 });
      const rows = items.map((e) => {
        const changes = (JSON.parse(e.changes) as FieldChange[])
          .map((c) => `${c.field}: ${show(c.old)} → ${show(c.new)}`)
          .join("; ");
        return [
          e.id,
          new Date(e.at).toISOString(),
          e.credential,
          e.session,
          e.address,
          e.action,
          e.object,
          e.outcome,
          e.detail,
          changes,
          e.prev_hash,
          e.hash,
        ];
      });
      const header = [
        "id",
        "at_utc",
        "credential",
        "session",
        "address",
        "action",
        "object",
        "outcome",
        "detail",
        "changes",
        "prev_hash",
        "hash",
      ];
      const stamp = new Date().toISOString().slice(0, 10);
      return new Response(encodeCsv([header, ...rows]), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="pithead-audit-${stamp}.csv"`,
        },
      });
    },
  },
];
