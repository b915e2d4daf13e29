declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'course.created': { title: string; instructor_id: string };
    'course.updated': { fields: string[] };
    'course.published': { title: string };
    'course.archived': { title: string };
    'course.deleted': { title: string };
    'course.lesson_created': { course_id: string; title: string };
    'course.lesson_updated': { course_id: string; fields: string[] };
    'course.lesson_deleted': { course_id: string };
    'course.lessons_reordered': { lesson_ids: string[] };
    'course.enrolled': { course_id: string; instructor_id: string };
    'course.left': { course_id: string };
    'course.reviewed': { course_id: string; rating: number };
    'course.review_deleted': { course_id: string };
    'course.completed': { course_id: string; instructor_id: string; completed_at: string };
  }
}
export {};
