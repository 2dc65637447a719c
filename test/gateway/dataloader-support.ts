// What the DataLoader tests share.

/** Request logs compared as sets: concurrent requests arrive in any order. */
export function sorted(requests: string[]): string[] {
  return [...requests].sort();
}
