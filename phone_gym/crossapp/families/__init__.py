"""The families of cross-app work, like the single-app families of ``tasks.families``: a
template declares data (where a value comes from and goes to, what it must match, the
stages of a workflow) and the family turns it into params, criteria, allowed changes and
the oracle. One module per kind: ``handoff`` (a value read in one app is written into
another), ``artifact`` (a file, photo or document made in one app is used in another),
``consistency`` (records two apps keep must agree: a booking and its event, a payment and
its expense), ``multihop`` (a workflow over three or more apps in stages) and ``wechat``
(the Chinese apps' handoffs through WeChat: told in a chat, shared to a group)."""
