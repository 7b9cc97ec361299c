import { useState } from "preact/hooks";
import { del, get, post } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { toast } from "../lib/toast.ts";
import { BTN_PRIMARY, INPUT, LINK } from "../lib/ui.ts";
import { useFetch } from "../lib/useFetch.ts";
import { WalletAlert } from "./WalletAlert.tsx";

/** A ban list: add an entry (empty input sends nothing), newest first; a click opens ban/release. */
export function BanList({ kind }: { kind: "ip" | "wallet" }) {
  const path = `/api/${kind}/blacklist`;
  const [list, reload] = useFetch(() => get<string[]>(path), [path]);
  const [entry, setEntry] = useState("");
  const [open, setOpen] = useState<string | null>(null);
  const add = async (e: Event) => {
    e.preventDefault();
    if (!entry.trim()) return;
    await post(path, { ips: [entry.trim()] }).then(
      () => {
        toast("ok", t("ban.added"));
        setEntry("");
        reload();
      },
      () => undefined,
    );
  };
  const act = async (value: string, ban: boolean) => {
    setOpen(null);
    const call = ban
      ? post(path, { ips: [value] }, { quiet: true })
      : del(path, { ips: [value] }, { quiet: true });
    await call.then(
      () => toast("ok", t(ban ? "ban.added" : "ban.removed")),
      () => toast("ok", t(ban ? "lang.blacklist.err_add" : "lang.blacklist.err_remove")),
    );
    reload();
  };
  return (
    <div class="space-y-2" data-testid={`ban-${kind}`}>
      <form class="flex gap-2" onSubmit={add}>
        <label class="flex-1">
          <span class="sr-only">{t(`ban.input_${kind}`)}</span>
          <input
            class={INPUT}
            name={`ban-${kind}`}
            placeholder={t(`ban.input_${kind}`)}
            value={entry}
            onInput={(e) => setEntry(e.currentTarget.value)}
          />
        </label>
        <button type="submit" class={BTN_PRIMARY}>
          {t("common.add")}
        </button>
      </form>
      <ul class="max-h-64 space-y-1 overflow-y-auto text-sm">
        {(list ?? []).map((v) => (
          <li key={v}>
            <button type="button" class={`${LINK} break-all font-mono`} onClick={() => setOpen(v)}>
              {v}
            </button>
          </li>
        ))}
        {list?.length === 0 && <li class="text-mute">{t("common.empty")}</li>}
      </ul>
      {open && (
        <WalletAlert
          value={open}
          onClose={() => setOpen(null)}
          onBan={() => act(open, true)}
          onRelease={() => act(open, false)}
        />
      )}
    </div>
  );
}
