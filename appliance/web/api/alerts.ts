import { z } from "zod";
import { render } from "../../alerts/catalogue.ts";
import {
  CHANNEL_SETTING,
  channelsSchema,
  keepSecrets,
  readChannels,
  redactChannels,
} from "../../alerts/channel-settings.ts";
import { CHANNEL_NAMES } from "../../alerts/push-targets.ts";
import {
  ALERT_SETTING,
  alertRulesSchema,
  keepRulesSecret,
  readAlertRules,
  redactRules,
} from "../../alerts/rule-settings.ts";
import { audit } from "../audit.ts";
import { parseBody } from "../body.ts";
import { badRequest } from "../errors.ts";
import type { Route } from "../router.ts";

/**
 * Alerts (spec §3 "Offline alert settings", §7 /api/warning/setting): what to be told about, the
 * push channels (secrets never read back), the history of episodes and a test message.
 */
const testSchema = z.object({
  channel: z.enum(CHANNEL_NAMES, "lang.alert.err_save").nullable().default(null),
});

const HISTORY_MAX = 1000;

export const alertRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/warning/setting",
    handler: ({ app }) => Response.json(redactRules(readAlertRules(app.settings))),
  },
  {
    method: "POST",
    path: "/api/warning/setting",
    handler: async (r) => {
      const stored = readAlertRules(r.app.settings);
      const value = keepRulesSecret(await parseBody(r.req, alertRulesSchema), stored);
      audit(r, `setting ${ALERT_SETTING}`, stored, value);
      r.app.settings.set(ALERT_SETTING, value);
      return Response.json(redactRules(value));
    },
  },
  {
    method: "GET",
    path: "/api/warning/channels",
    handler: ({ app }) => Response.json(redactChannels(readChannels(app.settings))),
  },
  {
    method: "POST",
    path: "/api/warning/channels",
    handler: async (r) => {
      const stored = readChannels(r.app.settings);
      const value = keepSecrets(await parseBody(r.req, channelsSchema), stored);
      audit(r, `setting ${CHANNEL_SETTING}`, stored, value);
      r.app.settings.set(CHANNEL_SETTING, value);
      return Response.json(redactChannels(value));
    },
  },
  {
    method: "GET",
    path: "/api/warning/history",
    handler: ({ app, url }) => {
      const limit = Number(url.searchParams.get("limit") ?? "200");
      if (!Number.isInteger(limit) || limit < 1 || limit > HISTORY_MAX) {
        throw badRequest("lang.err.params", { field: "limit" });
      }
      const lang = readAlertRules(app.settings).lang;
      const items = app.alerts.list(limit).map((a) => ({
        id: a.id,
        kind: a.kind,
        subject: a.subject,
        port_id: a.portId,
        state: a.state,
        key: a.key,
        vars: a.vars,
        text: render(lang, a.key, a.vars),
        fired_at: a.firedAt,
        resolved_at: a.resolvedAt,
      }));
      const queue = app.alerts.queue();
      return Response.json({ items, queue: { pending: queue.count, last_error: queue.lastError } });
    },
  },
  {
    method: "POST",
    path: "/api/warning/test",
    handler: async ({ app, req }) => {
      const { channel } = await parseBody(req, testSchema);
      return Response.json({ results: await app.alerts.testSend(channel) });
    },
  },
];
