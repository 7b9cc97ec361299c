/**
 * Stop, open and delete of one port (spec §4), as the pool page's menu and the port page's top panel
 * both run them: stopping disconnects the devices and deleting cannot be undone, so both ask first;
 * each shows the queued notice, then the outcome.
 */
import { ask } from "./confirm.ts";
import { t } from "./i18n.ts";
import { deletePort, startPort, stopPort } from "./port-api.ts";
import { toast } from "./toast.ts";

export type PortAction = "stop" | "start" | "delete";

const ACTIONS: Record<
  PortAction,
  { call: (id: number) => Promise<unknown>; ask?: string; ok: string; fail: string }
> = {
  stop: {
    call: (id) => stopPort(id, true),
    ask: "port.confirm_stop",
    ok: "port.stopped",
    fail: "port.stop_failed",
  },
  start: { call: (id) => startPort(id, true), ok: "port.started", fail: "port.start_failed" },
  delete: {
    call: (id) => deletePort(id, true),
    ask: "port.confirm_delete",
    ok: "port.deleted",
    fail: "port.delete_failed",
  },
};

/** Runs the action on port `id` (number `port`); true when it was carried out, false when declined or failed. */
export async function runPortAction(action: PortAction, id: number, port: number): Promise<boolean> {
  const a = ACTIONS[action];
  if (a.ask && !(await ask(t(a.ask, { port }), true))) return false;
  toast("warn", t("port.queued"));
  try {
    await a.call(id);
    toast("ok", t(a.ok));
    return true;
  } catch {
    toast("err", t(a.fail));
    return false;
  }
}
