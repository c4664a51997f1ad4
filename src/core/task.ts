/** What a family's label is: real (`regression`), binary 0/1 or ±1 (`classification`), or a non-negative integer `count`. */
export type Task = 'regression' | 'classification' | 'count';
