import { useState } from "preact/hooks";
import { Modal } from "../components/Modal.tsx";
import { post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { PresentedCert, RemoteClient } from "../lib/remote-types.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { CertCheck } from "./CertCheck.tsx";

/**
 * Pins the certificate a remote presents now: a remote registered before pinning, or one whose
 * certificate was replaced. The appliance asks for the password again (a re-pin decides where the
 * remote's token may be sent).
 */
export function PinDialog({
  client,
  onClose,
  onPinned,
}: {
  client: RemoteClient;
  onClose: () => void;
  onPinned: () => void;
}) {
  const [cert] = useFetch(
    () => post<PresentedCert>("/api/remote/inspect", { address: client.address }),
    [client.id],
  );
  const [confirmed, setConfirmed] = useState(false);
  const pin = async () => {
    if (!cert) return;
    if (!confirmed) {
      toast("err", t("lang.remote.err_confirm"));
      return;
    }
    await post(`/api/remote/${client.id}/pin`, { fingerprint: cert.fingerprint }).then(
      () => {
        toast("ok", t("remote.pinned_ok"));
        onPinned();
      },
      () => undefined,
    );
  };
  return (
    <Modal
      title={t("remote.pin_of", { name: client.remark })}
      onClose={onClose}
      testId="remote-pin"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="button" class={BTN_PRIMARY} disabled={!cert} onClick={pin}>
            {t("remote.pin")}
          </button>
        </>
      }
    >
      {cert ? (
        <CertCheck
          cert={cert}
          pinned={client.fingerprint || undefined}
          confirmed={confirmed}
          onConfirm={setConfirmed}
        />
      ) : (
        <p class="text-sm text-mute">{t("remote.cert_reading")}</p>
      )}
    </Modal>
  );
}
