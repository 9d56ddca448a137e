/** An application module that embeds Finch: finch.core brings the VM, the frontends and their libraries as modules. */
module com.example.modular {
    requires finch.core;
}
