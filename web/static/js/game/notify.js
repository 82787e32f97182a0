// A browser notification when it becomes this player's move while the tab
// is hidden (the tab's title says it too: panel.js). Permission is asked
// at the player's first stone (a click, as browsers require), once.

import { t } from '../i18n.js';

/** Asks for permission to notify, if it was never asked. */
export function askToNotify() {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  Notification.requestPermission().catch(() => {});
}

/**
 * Notifies that it is this player's move, if the tab is hidden.
 * @param {string} table @param {string} text what the prompt asks
 */
export function notifyMove(table, text) {
  if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(t('notify.your_move'), { body: text, tag: `tengen-${table}` });
  } catch { /* not allowed here (some mobile browsers) */ }
}
