/**
 * Runs `callback` in a task of its own: after the event being dispatched and its default action
 * (a `<summary>` opening its `<details>`). Shared by the `client:intent` directive and the menus'
 * hand-over; it ships to the browser, so it imports nothing.
 */
export function afterDefaultAction(callback: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback();
  };
  channel.port2.postMessage(null);
}
