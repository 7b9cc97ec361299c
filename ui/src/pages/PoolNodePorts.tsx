import { useState } from "preact/hooks";
import type { PoolPortView as PoolPort } from "../../../appliance/poolnode/service.ts";
import { AddNodePort, failure, type PortSettings, PortSettingsFields } from "../dialogs/AddNodePort.tsx";
import { ApiError, del, get, post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_DANGER, BTN_GHOST, BTN_PRIMARY, CARD, TD, TH } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

const REFRESH_MS = 10_000;

const settingsOf = (p: PoolPort): PortSettings => ({
  name: p.name,
  difficulty: p.difficulty === null ? "" : String(p.difficulty),
  limit: String(p.limit_connections),
});

function stateText(p: PoolPort): string {
  if (p.listening) return t("poolnode.port_listening", { n: p.connections });
  return p.error === null ? t("poolnode.port_stopped") : t("poolnode.port_error", { error: p.error });
}

/**
 * The node's ports (docs/pool-node.md "Pool-node ports"): the project's stratum port and the extra
 * listeners of the same pool, with their miners; an extra one is added, edited (remark, start
 * difficulty, connection cap for the next connections) or removed (its miners are disconnected).
 */
export function PoolNodePorts({
  active,
  coin,
  projectDifficulty,
}: {
  /** not activated: no ports to list; adding one is answered "not activated" (spec §8) */
  active: boolean;
  coin: string;
  projectDifficulty: number;
}) {
  const [ports, reload] = useFetch(
    () =>
      active
        ? get<{ status: number; data?: PoolPort[] }>("/api/poolnode/ports", { quiet: true }).then(
            (r) => r.data ?? [],
          )
        : Promise.resolve<PoolPort[]>([]),
    [active],
    REFRESH_MS,
  );
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<PoolPort | null>(null);
  const [form, setForm] = useState<PortSettings>({ name: "", difficulty: "", limit: "" });
  const [err, setErr] = useState("");
  const edit = (p: PoolPort) => {
    setEditing(p);
    setForm(settingsOf(p));
    setErr("");
  };
  const save = async () => {
    if (editing === null) return;
    const body = {
      name: form.name,
      difficulty: form.difficulty.trim() === "" ? null : Number(form.difficulty),
      limit_connections: Number(form.limit),
    };
    try {
      await post(`/api/poolnode/extra/${editing.port}`, body, { quiet: true });
      setEditing(null);
      reload();
    } catch (e) {
      setErr(e instanceof ApiError ? failure(e) : String(e));
    }
  };
  const remove = async (p: PoolPort) => {
    if (!(await ask(t("poolnode.port_remove_confirm", { port: p.port, n: p.connections }), true))) return;
    await del(`/api/poolnode/extra/${p.port}`).then(
      () => toast("ok", t("poolnode.port_removed", { port: p.port })),
      () => undefined,
    );
    reload();
  };
  return (
    <section class={`${CARD} space-y-2`} data-testid="poolnode-ports">
      <div class="flex items-center justify-between">
        <h2 class="font-semibold">{t("poolnode.ports")}</h2>
        <button type="button" class={BTN_PRIMARY} onClick={() => setAdding(true)}>
          + {t("poolnode.add_port")}
        </button>
      </div>
      {active && (
        <table class="w-full text-sm">
          <thead>
            <tr>
              <th class={TH}>{t("port.port")}</th>
              <th class={TH}>{t("poolnode.port_remark")}</th>
              <th class={TH}>{t("poolnode.port_difficulty")}</th>
              <th class={TH}>{t("poolnode.port_limit")}</th>
              <th class={TH}>{t("poolnode.block_status")}</th>
              <th class={TH} />
            </tr>
          </thead>
          <tbody>
            {(ports ?? []).map((p) => (
              <tr key={p.port} data-port={p.port}>
                <td class={TD}>{p.port}</td>
                <td class={TD}>{p.project ? t("poolnode.port_project") : p.name}</td>
                <td class={TD} data-field="difficulty">
                  {p.difficulty ?? projectDifficulty}
                </td>
                <td class={TD}>{p.limit_connections}</td>
                <td class={TD} data-field="state">
                  {stateText(p)}
                </td>
                <td class={`${TD} space-x-1`}>
                  {!p.project && (
                    <>
                      <button type="button" class={BTN_GHOST} onClick={() => edit(p)}>
                        {t("common.edit")}
                      </button>
                      <button type="button" class={BTN_DANGER} onClick={() => remove(p)}>
                        {t("common.delete")}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing !== null && (
        <form
          class="space-y-2 border-t border-line pt-2"
          data-testid="pool-port-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <p class="text-sm">{t("poolnode.port_edit", { port: editing.port })}</p>
          <div class="grid gap-3 md:grid-cols-3">
            <PortSettingsFields value={form} onChange={setForm} />
          </div>
          {err && (
            <p role="alert" class="text-sm text-bad">
              {err}
            </p>
          )}
          <div class="flex gap-2">
            <button type="submit" class={BTN_PRIMARY}>
              {t("common.save")}
            </button>
            <button type="button" class={BTN_GHOST} onClick={() => setEditing(null)}>
              {t("common.cancel")}
            </button>
          </div>
        </form>
      )}
      {adding && (
        <AddNodePort
          coin={coin}
          onClose={() => setAdding(false)}
          onSaved={() => {
            setAdding(false);
            reload();
          }}
        />
      )}
    </section>
  );
}
