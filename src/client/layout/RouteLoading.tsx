/** What a lazily loaded page shows while its code arrives on a direct visit (React Router's hydrate fallback). */
export function RouteLoading() {
  return (
    <p className="page loading" role="status">
      Loading…
    </p>
  );
}
