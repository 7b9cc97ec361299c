import { coinNotes } from "../lib/coins.ts";
import { t } from "../lib/i18n.ts";
import { currency } from "../lib/session.ts";
import { useStore } from "../lib/use-store.ts";

/** The built-in advisory notes of a coin (LTC, ALPH, RXD, DNX, old BTC models). */
export function CoinNote({ coin }: { coin: string }) {
  const cfg = useStore(currency);
  const notes = coinNotes(coin, cfg[coin]);
  if (notes.length === 0) return null;
  return (
    <div
      data-testid="coin-note"
      class="space-y-1 rounded border border-line bg-panel px-3 py-2 text-sm text-mute"
    >
      {notes.map((k) => (
        <p key={k}>ⓘ {t(k)}</p>
      ))}
    </div>
  );
}
