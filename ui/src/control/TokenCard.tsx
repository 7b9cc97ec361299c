import { get, post } from "../lib/api.ts";
import { ask } from "../lib/confirm.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_GHOST, CARD, INPUT } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";

/** A machine credential of this instance, with copy and refresh (each token has one scope). */
interface TokenKind {
  read: string;
  refresh: string;
  label: string;
  hint: string;
}

export const CONTROL_TOKEN: TokenKind = {
  read: "/api/remote/token",
  refresh: "/api/remote/refresh/token",
  label: "remote.my_token",
  hint: "remote.token_scope",
};

export const METRICS_TOKEN: TokenKind = {
  read: "/api/metrics/token",
  refresh: "/api/metrics/token/refresh",
  label: "remote.metrics_token",
  hint: "remote.metrics_scope",
};

export function TokenCard({ kind }: { kind: TokenKind }) {
  const [tok, reload] = useFetch(() => get<{ token: string }>(kind.read), [kind.read]);
  const refresh = async () => {
    if (!(await ask(t("remote.refresh_confirm"), true))) return;
    await post(kind.refresh).then(reload, () => undefined);
  };
  const copy = () =>
    navigator.clipboard?.writeText(tok?.token ?? "").then(
      () => toast("ok", t("common.copied")),
      () => undefined,
    );
  return (
    <section class={CARD} aria-label={t(kind.label)}>
      <label class="block text-sm">
        <span class="mb-1 block text-xs text-mute">{t(kind.label)}</span>
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
      <p class="mt-1 text-xs text-mute">{t(kind.hint)}</p>
    </section>
  );
}
