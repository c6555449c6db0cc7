/**
 * Where an IP address is: the geolocation port, and the address parsing and classification it relies on. Parsing is
 * done here, strictly, because the mmdb reader answers garbage for input it does not understand (an IPv6 address
 * given to the IPv4 database finds "something").
 */

export const IpScope = {
  public: "public",
  private: "private",
  loopback: "loopback",
  linkLocal: "linkLocal",
  reserved: "reserved",
} as const;
export type IpScope = (typeof IpScope)[keyof typeof IpScope];

export interface ParsedIp {
  version: 4 | 6;
  /** The canonical text: dotted quad, or RFC 5952 IPv6. An IPv4-mapped IPv6 address is answered as its IPv4. */
  text: string;
  bytes: Uint8Array;
}

export interface GeoRecord {
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** The first-level subdivision (state, province, region). */
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string | null;
}

export interface GeoLocator {
  /** The database answers come from, with the attribution its licence asks for. */
  readonly source: string;
  /** Looks up a public address; null when the database knows nothing of it. Throws GeoUnavailableError. */
  lookup(ip: ParsedIp): Promise<GeoRecord | null>;
}

export class GeoUnavailableError extends Error {}

const DEC_OCTET = /^(0|[1-9]\d{0,2})$/;

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!DEC_OCTET.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    bytes[i] = n;
  }
  return bytes;
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** The 16-bit groups of one side of `::`; an IPv4 tail counts as two groups. */
function readGroups(text: string, ipv4Tail: boolean): number[] | null {
  if (text === "") return [];
  const groups = text.split(":");
  const words: number[] = [];
  for (const [i, group] of groups.entries()) {
    if (ipv4Tail && i === groups.length - 1 && group.includes(".")) {
      const v4 = parseIpv4(group);
      if (!v4) return null;
      words.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    } else if (HEX_GROUP.test(group)) words.push(Number.parseInt(group, 16));
    else return null;
  }
  return words;
}

function parseIpv6(text: string): Uint8Array | null {
  if (text.length > 45) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const compressed = halves.length === 2;
  const before = readGroups(halves[0] ?? "", !compressed);
  const after = compressed ? readGroups(halves[1] ?? "", true) : [];
  if (!before || !after) return null;
  const present = before.length + after.length;
  if (compressed ? present > 7 : present !== 8) return null;
  const words = [...before, ...new Array<number>(8 - present).fill(0), ...after];
  const bytes = new Uint8Array(16);
  for (const [i, word] of words.entries()) {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  }
  return bytes;
}

const formatIpv4 = (b: Uint8Array) => Array.from(b).join(".");

/** RFC 5952: lowercase, no leading zeros, the longest run of two or more zero groups (the first on a tie) as `::`. */
function formatIpv6(b: Uint8Array): string {
  const words = Array.from({ length: 8 }, (_, i) => ((b[i * 2] ?? 0) << 8) | (b[i * 2 + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (list: number[]) => list.map((w) => w.toString(16)).join(":");
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLength))}`;
}

const isV4Mapped = (b: Uint8Array) => b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** A strict IPv4 or IPv6 address (no zone, no port, no brackets); null when it is not one. */
export function parseIp(input: string): ParsedIp | null {
  const text = input.trim();
  if (text.includes(":")) {
    const bytes = parseIpv6(text);
    if (!bytes) return null;
    if (isV4Mapped(bytes)) {
      const v4 = bytes.slice(12);
      return { version: 4, text: formatIpv4(v4), bytes: v4 };
    }
    return { version: 6, text: formatIpv6(bytes), bytes };
  }
  const bytes = parseIpv4(text);
  return bytes ? { version: 4, text: formatIpv4(bytes), bytes } : null;
}

/** Whether `bytes` starts with the first `bits` bits of `prefix`. */
function inPrefix(bytes: Uint8Array, prefix: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

type Range = [prefix: number[], bits: number, scope: IpScope];

// IANA special-purpose registries (RFC 6890 and successors): ranges no geolocation database can place.
const V4_RANGES: Range[] = [
  [[0], 8, "reserved"],
  [[10], 8, "private"],
  [[100, 64], 10, "private"],
  [[127], 8, "loopback"],
  [[169, 254], 16, "linkLocal"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "reserved"],
  [[192, 0, 2], 24, "reserved"],
  [[192, 168], 16, "private"],
  [[198, 18], 15, "reserved"],
  [[198, 51, 100], 24, "reserved"],
  [[203, 0, 113], 24, "reserved"],
  [[224], 4, "reserved"],
  [[240], 4, "reserved"],
];
const V6_RANGES: Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, "reserved"],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, "reserved"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "reserved"],
  [[0xfc], 7, "private"],
  [[0xfe, 0x80], 10, "linkLocal"],
  [[0xff], 8, "reserved"],
];

export function ipScope(ip: ParsedIp): IpScope {
  for (const [prefix, bits, scope] of ip.version === 4 ? V4_RANGES : V6_RANGES)
    if (inPrefix(ip.bytes, prefix, bits)) return scope;
  return "public";
}

/** A locator that always fails: for tests, and for runtimes that cannot read the database file. */
export const unavailableGeo = (reason: string): GeoLocator => ({
  source: "none",
  lookup: () => Promise.reject(new GeoUnavailableError(reason)),
});
