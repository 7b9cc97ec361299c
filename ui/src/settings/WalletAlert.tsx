import { Modal } from "../components/Modal.tsx";
import { t } from "../lib/i18n.ts";
import { BTN_DANGER, BTN_GHOST } from "../lib/ui.ts";

interface Props {
  value: string;
  onClose: () => void;
  onBan: () => void;
  onRelease: () => void;
}

/** Wallet alert: titled with the wallet, offers ban or release. */
export function WalletAlert({ value, onClose, onBan, onRelease }: Props) {
  return (
    <Modal
      title={value}
      onClose={onClose}
      testId="wallet-alert"
      footer={
        <>
          <button type="button" class={BTN_GHOST} onClick={onRelease}>
            {t("ban.release")}
          </button>
          <button type="button" class={BTN_DANGER} onClick={onBan}>
            {t("ban.ban")}
          </button>
        </>
      }
    >
      <p class="text-sm">{t("ban.alert_text")}</p>
    </Modal>
  );
}
