// Likes are entries of the favorites playlist: their events are recorded by FavoritesService.
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'track.liked': { playlist_id: string };
    'track.unliked': { playlist_id: string };
  }
}

export {};
