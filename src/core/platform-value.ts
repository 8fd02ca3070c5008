/**
 * A value that is either one setting for every platform or a map by Node's `process.platform`
 * name plus `default` (`{ linux: 5s, darwin: 4s, default: 5s }`).
 */
export const PLATFORMS = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'haiku',
  'linux',
  'openbsd',
  'sunos',
  'win32',
  'cygwin',
  'netbsd',
] as const;
export type Platform = (typeof PLATFORMS)[number];
export type PlatformKey = Platform | 'default';

export type PlatformValue<T> =
  | { readonly kind: 'single'; readonly value: T }
  | { readonly kind: 'map'; readonly values: Readonly<Partial<Record<PlatformKey, T>>> };

export function isPlatformKey(key: string): key is PlatformKey {
  return key === 'default' || (PLATFORMS as readonly string[]).includes(key);
}

/** The value for `platform` and which key supplied it, or undefined when the map has neither. */
export function resolvePlatformValue<T>(
  pv: PlatformValue<T>,
  platform: string,
): { readonly value: T; readonly key: PlatformKey | 'all' } | undefined {
  switch (pv.kind) {
    case 'single':
      return { value: pv.value, key: 'all' };
    case 'map': {
      if (isPlatformKey(platform)) {
        const own = pv.values[platform];
        if (own !== undefined) return { value: own, key: platform };
      }
      const fallback = pv.values.default;
      return fallback === undefined ? undefined : { value: fallback, key: 'default' };
    }
    default: {
      const never: never = pv;
      return never;
    }
  }
}

/**
 * `next` set over `prev` (`allowances add --replace`): a single value replaces everything; a map
 * replaces only the keys it names, a single `prev` kept as the `default` of the others.
 */
export function withPlatformValue<T>(prev: PlatformValue<T>, next: PlatformValue<T>): PlatformValue<T> {
  if (next.kind === 'single') return next;
  const base = prev.kind === 'single' ? { default: prev.value } : prev.values;
  return { kind: 'map', values: { ...base, ...next.values } };
}
