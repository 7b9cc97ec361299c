import { useState } from "preact/hooks";
import { POOL_NODE_COINS } from "../../../appliance/catalog/currencies.ts";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { ApiError, get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { validatePoolNodePort } from "../lib/validate/forms.ts";

/** A group member's answer to the push of the new port (docs/pool-node.md "Group control"). */
interface Pushed {
  remark: string;
  error?: string;
}

interface Endpoint {
  coin: string;
  id: number;
  name: string;
}

/**
 * Add pool-node port: coin, port (1–65535) and area (the node's endpoint) required; the body of spec
 * §7, with the start difficulty (empty: the project's) and the connection cap.
 */
export function AddNodePort({
  coin,
  onClose,
  onSaved,
}: {
  coin: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [f, setF] = useState({
    proxyAddr: "",
    coin: coin === "" ? "" : `VA-${coin}`,
    port: "",
    area: "1",
    name: "",
    difficulty: "",
    limit: "60000",
  });
  const [err, setErr] = useState("");
  const [endpoints] = useFetch(
    () =>
      get<{ status: number; data?: Endpoint[] }>("/api/poolnode/endpoints", { quiet: true }).then(
        (r) => r.data ?? [],
        (): Endpoint[] => [],
      ),
    [],
  );
  const save = async () => {
    if (validatePoolNodePort({ coin: f.coin, port: f.port, area: f.area }).length) {
      setErr(t("lang.poolnode.err_incomplete"));
      return;
    }
    const body = {
      port: Number(f.port),
      name: f.name,
      currency: f.coin,
      nc: 0,
      limit_connections: Number(f.limit),
      pool_address: f.area,
      connect_mode: 0,
      pool_address2: null,
      connect_mode2: 1,
      mode: 0,
      pattern_addr: "",
      replace_addr: "",
      wallets: [],
      protocol: 0,
      category: "poolnode",
      proxy_addr: f.proxyAddr,
      ...(f.difficulty.trim() === "" ? {} : { difficulty: Number(f.difficulty) }),
    };
    try {
      const created = await post<{ status: number; data?: { pushed: Pushed[] } }>(
        "/api/poolnode/port/new",
        body,
        { quiet: true },
      );
      if (created.status !== 0 || created.data === undefined) {
        setErr(t("poolnode.not_active"));
        return;
      }
      const pushed = created.data.pushed;
      // spec §8's "all servers under this node get the port" only when every one of them did
      const everyMember = pushed.length > 0 && pushed.every((p) => p.error === undefined);
      toast("ok", t(everyMember ? "poolnode.created" : "poolnode.port_created", { port: f.port }));
      // the port exists here either way; a member that refused it is named with its reason
      for (const p of pushed)
        if (p.error !== undefined) toast("err", `${t("poolnode.create_failed")}: ${p.remark}`, t(p.error));
      onSaved();
    } catch (e) {
      setErr(e instanceof ApiError ? failure(e) : t("poolnode.create_failed"));
    }
  };
  return (
    <Modal
      title={t("poolnode.add_port")}
      onClose={onClose}
      testId="add-node-port"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="button" class={BTN_PRIMARY} onClick={save}>
            {t("common.save")}
          </button>
        </>
      }
    >
      <div class="space-y-3">
        <Field label={t("port.currency")}>
          <select class={INPUT} value={f.coin} onChange={(e) => setF({ ...f, coin: e.currentTarget.value })}>
            <option value="">{t("editor.choose_coin")}</option>
            {POOL_NODE_COINS.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field label={t("port.port")}>
          <input
            class={INPUT}
            name="port"
            type="number"
            min={1}
            max={65535}
            value={f.port}
            onInput={(e) => setF({ ...f, port: e.currentTarget.value })}
          />
        </Field>
        <Field label={t("poolnode.area")}>
          <select class={INPUT} value={f.area} onChange={(e) => setF({ ...f, area: e.currentTarget.value })}>
            {(endpoints ?? []).map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <PortSettingsFields value={f} onChange={(v) => setF({ ...f, ...v })} />
        <Field label={t("poolnode.proxy_addr")}>
          <input
            class={INPUT}
            name="proxy_addr"
            value={f.proxyAddr}
            onInput={(e) => setF({ ...f, proxyAddr: e.currentTarget.value })}
          />
        </Field>
        {err && (
          <p role="alert" class="text-sm text-bad">
            {err}
          </p>
        )}
      </div>
    </Modal>
  );
}

/** Why a pool-node port was refused, as the operator reads it: the server's message and detail. */
export const failure = (e: ApiError) =>
  `${t("poolnode.create_failed")}: ${e.text}${e.body?.detail ? ` (${e.body.detail})` : ""}`;

export interface PortSettings {
  name: string;
  difficulty: string;
  limit: string;
}

/** A pool-node port's own settings as typed: remark, start difficulty (empty: the project's), cap. */
export function PortSettingsFields({
  value,
  onChange,
}: {
  value: PortSettings;
  onChange: (v: PortSettings) => void;
}) {
  return (
    <>
      <Field label={t("poolnode.port_remark")}>
        <input
          class={INPUT}
          name="name"
          value={value.name}
          onInput={(e) => onChange({ ...value, name: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("poolnode.port_difficulty")}>
        <input
          class={INPUT}
          name="difficulty"
          inputMode="decimal"
          value={value.difficulty}
          onInput={(e) => onChange({ ...value, difficulty: e.currentTarget.value })}
        />
      </Field>
      <Field label={t("poolnode.port_limit")}>
        <input
          class={INPUT}
          name="limit_connections"
          type="number"
          min={1}
          max={65535}
          value={value.limit}
          onInput={(e) => onChange({ ...value, limit: e.currentTarget.value })}
        />
      </Field>
    </>
  );
}
