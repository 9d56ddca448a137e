: day ( int -- string ) case 1 of "Mon" endof 2 of "Tue" endof 3 of "Wed" endof otherwise "?" endcase ;
2 day say 9 day say
