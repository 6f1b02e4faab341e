/**
 * Runs `callback` in a task of its own: after the event being dispatched and its default action
 * (a click on a <summary> has opened its <details> by then). Used by the `client:intent`
 * directive and by the menus' hand-over from their server markup.
 */
export function afterDefaultAction(callback: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback();
  };
  channel.port2.postMessage(null);
}
