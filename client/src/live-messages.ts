import { LiveServerMessageSchema, type LiveClientMessage, type LiveServerMessage } from './contract-types.js';

/*
 * The live channel of shared sessions (WebSocket /api/v1/ws?token=<chat or stream token>): its
 * messages are typed by the contract (LiveClientMessageSchema, LiveServerMessageSchema and
 * LIVE_CLOSE_CODES come with the contract's types), so a frontend neither types them by hand nor
 * trusts a frame it did not check.
 */

/** A frame's text as a server message, or undefined when it is not one (not JSON, or a shape this client does not know). */
export function parseLiveMessage(text: string): LiveServerMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = LiveServerMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** A client message as the text of one frame. */
export const liveMessageText = (message: LiveClientMessage): string => JSON.stringify(message);
