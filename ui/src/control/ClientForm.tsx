import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { RemoteClient } from "../lib/remote-types.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { validateClient } from "../lib/validate/forms.ts";

/** Add or edit a remote client: access address, its API token, remark — all three required. */
export function ClientForm({
  client,
  onClose,
  onSaved,
}: {
  client: RemoteClient | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [f, setF] = useState({ address: client?.address ?? "", token: "", remark: client?.remark ?? "" });
  const [err, setErr] = useState("");
  const save = async () => {
    const errs = validateClient(f);
    if (errs.length) {
      setErr(t(errs[0].key));
      return;
    }
    try {
      await post(client ? `/api/remote/${client.id}` : "/api/remote/new", f);
      toast("ok", t("common.saved"));
      onSaved();
    } catch {
      /* toast shown */
    }
  };
  const input = (k: keyof typeof f, label: string) => (
    <Field label={t(label)}>
      <input
        class={INPUT}
        name={k}
        value={f[k]}
        onInput={(e) => setF({ ...f, [k]: e.currentTarget.value })}
      />
    </Field>
  );
  return (
    <Modal
      title={t(client ? "remote.edit" : "remote.add")}
      onClose={onClose}
      testId="client-form"
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
        {input("address", "remote.address")}
        {input("token", "remote.token")}
        {input("remark", "remote.remark")}
        {err && (
          <p role="alert" class="text-sm text-bad">
            {err}
          </p>
        )}
      </div>
    </Modal>
  );
}
