/** The styles a formatter may ask for; the edge decides whether they become colour (io/terminal.ts). */
export type TextStyle = 'red' | 'green' | 'yellow' | 'dim' | 'bold' | 'cyan';

export type Paint = (style: TextStyle, text: string) => string;

export const plainText: Paint = (_style, text) => text;
