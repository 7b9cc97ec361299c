import { coinHue, coinInitials } from "../lib/coins.ts";

/** A coin icon drawn by the console: initials on a colour derived from the name. */
export function CoinBadge({ coin, size = 22 }: { coin: string; size?: number }) {
  const hue = coinHue(coin);
  return (
    <span
      aria-hidden="true"
      class="inline-flex shrink-0 items-center justify-center rounded-full font-bold text-white"
      style={{ width: size, height: size, fontSize: size * 0.36, background: `hsl(${hue} 55% 42%)` }}
    >
      {coinInitials(coin)}
    </span>
  );
}
