import { useState } from "preact/hooks";
import { POOL_NODE_COINS } from "../../../appliance/catalog/currencies.ts";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { validatePoolNodePort } from "../lib/validate/forms.ts";

/** Add pool-node port: coin, port (1–65535) and area required; the body of spec §7. */
export function AddNodePort({ onClose }: { onClose: () => void }) {
  const [f, setF] = useState({ coin: "", port: "", area: "", name: "" });
  const [err, setErr] = useState("");
  const save = async () => {
    if (validatePoolNodePort(f).length) {
      setErr(t("lang.poolnode.err_incomplete"));
      return;
    }
    const body = {
      port: Number(f.port),
      name: f.name,
      currency: f.coin,
      nc: 0,
      limit_connections: 60000,
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
      proxy_addr: "",
    };
    try {
      await post("/api/poolnode/port/new", body, { quiet: true });
      toast("ok", t("poolnode.created"));
      onClose();
    } catch {
      toast("err", t("poolnode.create_failed"));
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
            type="number"
            min={1}
            max={65535}
            value={f.port}
            onInput={(e) => setF({ ...f, port: e.currentTarget.value })}
          />
        </Field>
        <Field label={t("poolnode.area")}>
          <input class={INPUT} value={f.area} onInput={(e) => setF({ ...f, area: e.currentTarget.value })} />
        </Field>
        <Field label={t("port.name")}>
          <input class={INPUT} value={f.name} onInput={(e) => setF({ ...f, name: e.currentTarget.value })} />
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
