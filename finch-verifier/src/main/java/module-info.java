/** The verifier: stack and type checking, effect and yield inference, declaration checks. */
@SuppressWarnings("module") // names modules absent when this one compiles (automatic modules, later in the build)
module finch.verifier {
    requires transitive finch.ir;
    requires transitive finch.capabilities;
    exports dev.finch.verifier to finch.core, finch.bench, finch.norman.test;
}
