/*
 * The lexical structure of µNorman (language reference, "Lexical structure"). No actions. The datum structure is
 *
 *     program : datum* EOF ;
 *     datum   : '(' datum* ')' | '[' datum* ']' | '\'' datum | STRING | ATOM ;
 *
 * which the Reader builds from this lexer's tokens with an explicit stack (never recursing in the input's nesting),
 * counting tokens and nesting against the submission's compile budget as they arrive.
 */
lexer grammar NormanLexer;

LPAREN   : '(' ;
RPAREN   : ')' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
QUOTE    : '\'' ;
STRING   : '"' ( '\\' . | ~["\\] )* '"' ;
COMMENT  : ';' ~[\r\n]* -> skip ;
WS       : [ \t\r\n\f]+ -> skip ;
// Every other character joins a token that stops only at a bracket, a semicolon, whitespace or a quote.
ATOM     : ~[ \t\r\n\f()[\];"']+ ;
// Anything else (an unterminated string's opening quote) is one bad token, reported as a diagnostic.
BAD      : . ;
