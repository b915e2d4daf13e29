declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'cloud.folder_created': { name: string };
    'cloud.folder_updated': { name: string; moved: boolean };
    'cloud.file_created': { name: string; size: number; content_type: string };
    'cloud.file_updated': { name: string; moved: boolean };
  }
}
export {};
