/** The share link with prefilled answers and hidden fields as query parameters (docs/respondents.md). */
export function prefillLink(url: string, values: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(values)) if (v !== '') u.searchParams.set(k, v);
  return u.href;
}
