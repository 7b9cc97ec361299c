import { get, post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, CARD, INPUT } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** This instance's group-control API token, with copy and refresh. */
export function TokenCard() {
  const [tok, reload] = useFetch(() => get<{ token: string }>("/api/remote/token"), []);
  const refresh = async () => {
    if (!(await ask(t("remote.refresh_confirm"), true))) return;
    await post("/api/remote/refresh/token").then(reload, () => undefined);
  };
  const copy = () =>
    navigator.clipboard?.writeText(tok?.token ?? "").then(
      () => toast("ok", t("common.copied")),
      () => undefined,
    );
  return (
    <section class={CARD} aria-label={t("remote.my_token")}>
      <label class="block text-sm">
        <span class="mb-1 block text-xs text-mute">{t("remote.my_token")}</span>
        <div class="flex gap-2">
          <input class={`${INPUT} font-mono`} readOnly value={tok?.token ?? ""} />
          <button type="button" class={BTN_GHOST} onClick={copy}>
            {t("common.copy")}
          </button>
          <button type="button" class={BTN_GHOST} onClick={refresh}>
            {t("remote.refresh")}
          </button>
        </div>
      </label>
    </section>
  );
}
