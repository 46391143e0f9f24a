/** Reads the extension's settings from VS Code and says when the server needs them again. */

import * as vscode from 'vscode';
import { CONFIG_SECTION } from './constants';
import { type ExtensionSettings, RESTART_KEYS, readSettings } from './serverConfig';

export function getSettings(scope?: vscode.ConfigurationScope): ExtensionSettings {
  const cfg = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  return readSettings((key) => cfg.get(key));
}

/** True when the change touches a setting that only a server restart applies. */
export function needsRestart(e: vscode.ConfigurationChangeEvent): boolean {
  return RESTART_KEYS.some((k) => e.affectsConfiguration(`${CONFIG_SECTION}.${k}`));
}

/** True when the change touches any of the extension's settings. */
export function affectsUs(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration(CONFIG_SECTION);
}

/** Opens the Settings editor filtered to this extension's settings (or one of them). */
export async function openSettings(key?: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openSettings', key ? `${CONFIG_SECTION}.${key}` : CONFIG_SECTION);
}
