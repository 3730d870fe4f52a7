/** A zone: IANA name or fixed hours east of UTC (as the portal's other modules take it). */
export type Zone = string | number;

const p2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** 'YYYY-MM-DD HH:mm:ss' of an instant in a zone (the user's chosen zone, else the browser's offset). */
export function formatAt(d: Date | string, zone: Zone): string {
  const ms = new Date(d).getTime();
  if (typeof zone === 'number') {
    const x = new Date(Math.floor(ms) + Math.round(zone * 60) * 60_000);
    return `${x.getUTCFullYear()}-${p2(x.getUTCMonth() + 1)}-${p2(x.getUTCDate())} ${p2(x.getUTCHours())}:${p2(x.getUTCMinutes())}:${p2(x.getUTCSeconds())}`;
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
