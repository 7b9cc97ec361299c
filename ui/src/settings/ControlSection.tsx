import { Link } from "react-router-dom";
import { t } from "../lib/i18n.ts";
import { BTN_PRIMARY } from "../lib/ui.ts";

/** Group control lives on its own page; the settings list points to it. */
export function ControlSection({ onClose }: { onClose?: () => void }) {
  return (
    <div class="space-y-2 text-sm">
      <p class="text-mute">{t("remote.help")}</p>
      <Link to="/system/control" class={BTN_PRIMARY} onClick={onClose}>
        {t("nav.control")}
      </Link>
    </div>
  );
}
