/** Sends the browser to another page (the success page, the shop's cancel page): a full page load. */
export function leavePage(url: string): void {
  window.location.assign(url);
}
