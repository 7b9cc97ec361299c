import { useState } from "preact/hooks";
import { Field } from "../components/Field.tsx";
import { Modal } from "../components/Modal.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { PresentedCert, RemoteClient } from "../lib/remote-types.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { validateClient } from "../lib/validate/forms.ts";
import { CertCheck } from "./CertCheck.tsx";

/**
 * Add or edit a remote client: access address (https), its API token, remark — all three required.
 * A new address is first connected to, and saved only after the operator confirmed the certificate
 * it presents (the appliance pins it and refuses any other later).
 */
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
  const [cert, setCert] = useState<PresentedCert | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [err, setErr] = useState("");
  const needsPin = !client || f.address.trim().replace(/\/+$/, "") !== client.address;
  const save = async () => {
    const errs = validateClient(f);
    if (errs.length) {
      setErr(t(errs[0].key));
      return;
    }
    if (needsPin && !cert) {
      await post<PresentedCert>("/api/remote/inspect", { address: f.address }).then(setCert, () => undefined);
      return;
    }
    if (needsPin && !confirmed) {
      setErr(t("lang.remote.err_confirm"));
      return;
    }
    try {
      const body = needsPin && cert ? { ...f, fingerprint: cert.fingerprint } : f;
      await post(client ? `/api/remote/${client.id}` : "/api/remote/new", body);
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
        onInput={(e) => {
          setF({ ...f, [k]: e.currentTarget.value });
          // another address presents another certificate: check it again
          if (k === "address") {
            setCert(null);
            setConfirmed(false);
          }
        }}
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
            {t(needsPin && !cert ? "remote.cert_read" : "common.save")}
          </button>
        </>
      }
    >
      <div class="space-y-3">
        {input("address", "remote.address")}
        {input("token", "remote.token")}
        {input("remark", "remote.remark")}
        {cert && <CertCheck cert={cert} confirmed={confirmed} onConfirm={setConfirmed} />}
        {err && (
          <p role="alert" class="text-sm text-bad">
            {err}
          </p>
        )}
      </div>
    </Modal>
  );
}
