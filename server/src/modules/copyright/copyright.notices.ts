import type { EventMap } from '../../platform/events/event-map.js';
import { claimSentence } from './copyright.mail.js';
import './copyright.events.js';

type ClaimEventType = 'copyright.claimed' | 'copyright.countered' | 'copyright.upheld' | 'copyright.rejected';

/**
 * What a copyright event tells the party it was recorded for (always, whatever their preferences),
 * or undefined when it tells them nothing (their own act). Never the other party's contact.
 */
export function copyrightNotice(type: ClaimEventType, data: EventMap[ClaimEventType]): string | undefined {
  const owner = data.party === 'owner';
  const track = data.track_title ? `your track ${data.track_title}` : 'your track';
  const claimed = data.track_title ? `the track ${data.track_title}` : 'the track';
  switch (type) {
    case 'copyright.claimed': {
      if (!owner) return undefined;
      const claim = data as EventMap['copyright.claimed'];
      return `${claimSentence({
        trackTitle: data.track_title,
        claimantName: claim.claimant_name,
        workDescription: claim.work_description,
        originalUrl: claim.original_url,
      })}. You may file a counter-notice until ${claim.counter_deadline.replace('T', ' ').slice(0, 16)} UTC.`;
    }
    case 'copyright.countered':
      return owner
        ? undefined
        : `The owner of ${claimed} filed a counter-notice to your copyright claim: staff will decide.`;
    case 'copyright.upheld':
      return owner
        ? `The copyright claim against ${track} was upheld: the track was removed and your account received a strike. You may appeal.`
        : `Your copyright claim against ${claimed} was upheld: the track was removed.`;
    default:
      return owner
        ? `The copyright claim against ${track} was rejected.`
        : `Your copyright claim against ${claimed} was rejected by the moderators.`;
  }
}
