import { useState } from "preact/hooks";
import { asking } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { BTN_DANGER, BTN_GHOST, BTN_PRIMARY, INPUT } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import { Field } from "./Field.tsx";
import { Modal } from "./Modal.tsx";

/** The longest reason the server keeps (web/api/updates.ts REASON_MAX). */
const REASON_MAX = 500;

/** Renders the pending confirmation, if any; with a reason field, OK waits until a reason is written. */
export function ConfirmHost() {
  const a = useStore(asking);
  const [reason, setReason] = useState("");
  if (!a) return null;
  const done = (ok: boolean) => {
    setReason("");
    a.resolve(ok, reason.trim());
  };
  return (
    <Modal
      title={t("common.confirm_title")}
      onClose={() => done(false)}
      testId="confirm"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={() => done(false)}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            class={a.danger ? BTN_DANGER : BTN_PRIMARY}
            disabled={a.reasonLabel !== undefined && reason.trim() === ""}
            onClick={() => done(true)}
          >
            {t("common.ok")}
          </button>
        </>
      }
    >
      <p>{a.text}</p>
      {a.reasonLabel !== undefined && (
        <Field label={a.reasonLabel} class="mt-3">
          <textarea
            class={INPUT}
            name="reason"
            rows={3}
            maxLength={REASON_MAX}
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
          />
        </Field>
      )}
    </Modal>
  );
}
