import { LANGUAGES, setLanguage, t } from "../lib/i18n.ts";
import { type Language, prefs, setPref } from "../lib/prefs.ts";
import { toast } from "../lib/toast.ts";
import { useStore } from "../lib/use-store.ts";

/** Language select and theme toggle, stored in the preferences. */
export function LangThemeBar() {
  const p = useStore(prefs);
  const pick = (lang: Language) =>
    setLanguage(lang).then(
      () => setPref("language", lang),
      (e: unknown) => toast("err", t("err.chunk"), String(e)),
    );
  return (
    <div class="flex items-center justify-end gap-2 text-sm">
      <label class="sr-only" for="lang-select">
        {t("shell.language")}
      </label>
      <select
        id="lang-select"
        class="rounded border border-line bg-panel2 px-1 py-1 text-fg"
        value={p.language}
        onChange={(e) => pick(e.currentTarget.value as Language)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code}>
            {l.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        class="rounded border border-line px-2 py-1 text-fg hover:bg-panel2"
        aria-label={t("shell.theme")}
        data-testid="theme-toggle"
        onClick={() => setPref("theme", p.theme === "dark" ? "light" : "dark")}
      >
        {p.theme === "dark" ? "☾" : "☀"} {p.theme === "dark" ? t("shell.theme_dark") : t("shell.theme_light")}
      </button>
    </div>
  );
}
