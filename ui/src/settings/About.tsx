import { t } from "../lib/i18n.ts";

/** About and the eligibility and legal declaration. */
export function About() {
  return (
    <div class="space-y-2 text-sm" data-testid="about">
      <p>{t("about.text")}</p>
      <h4 class="font-semibold">{t("about.legal_title")}</h4>
      <p class="text-mute">{t("about.legal_1")}</p>
      <p class="text-mute">{t("about.legal_2")}</p>
      <p class="text-mute">{t("about.legal_3")}</p>
    </div>
  );
}
