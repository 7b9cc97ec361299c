import { asking } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { BTN_DANGER, BTN_GHOST, BTN_PRIMARY } from "../lib/ui.ts";
import { useStore } from "../lib/use-store.ts";
import { Modal } from "./Modal.tsx";

/** Renders the pending confirmation, if any. */
export function ConfirmHost() {
  const a = useStore(asking);
  if (!a) return null;
  return (
    <Modal
      title={t("common.confirm_title")}
      onClose={() => a.resolve(false)}
      testId="confirm"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={() => a.resolve(false)}>
            {t("common.cancel")}
          </button>
          <button type="button" class={a.danger ? BTN_DANGER : BTN_PRIMARY} onClick={() => a.resolve(true)}>
            {t("common.ok")}
          </button>
        </>
      }
    >
      <p>{a.text}</p>
    </Modal>
  );
}
