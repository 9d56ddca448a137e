/** The verifier: stack and type checking, effect and yield inference, declaration checks. */
module finch.verifier {
    requires transitive finch.ir;
    requires transitive finch.capabilities;
    exports dev.finch.verifier;
}
