/**
 * The embedding API: {@code Finch}, {@code Session}, {@code Submission}, {@code Outcome}. {@code requires finch.core}
 * gives an application the VM's host types and values ({@code dev.finch.host}, {@code dev.finch.vm.Value}) and the
 * capability model as well.
 */
module finch.core {
    requires transitive finch.ir;
    requires transitive finch.capabilities;
    requires transitive finch.verifier;
    requires transitive finch.vm;
    requires finch.persist;
    requires transitive finch.host;
    requires finch.lib;
    requires transitive finch.automation;
    requires transitive finch.net;
    requires static finch.workbooks;
    requires transitive finch.norman;
    requires finch.forth;
    requires finch.lisp;
    requires transitive com.fasterxml.jackson.databind;
    exports dev.finch;
    exports dev.finch.tools;
    exports dev.finch.agent;
    exports dev.finch.conversation;
    exports dev.finch.store;
    exports dev.finch.schedule;
    uses dev.finch.store.StoreFactory;
}
