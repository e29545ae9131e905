"""AndroidWorld's media tasks and their phone-gym counterparts: Retro Music (the Music app),
VLC, Audio Recorder (the Recorder app) and Camera. Songs and videos are files in shared
storage; playlists and the playing queue are the apps' own data; recordings, photos and
videos the apps make are new files. Every check counts changes: exactly the asked records
or files added, nothing else touched (the songs, the videos, the owner's playlists and
older recordings or photos seeded beside them)."""

from __future__ import annotations

MAPPED: dict[str, tuple[str, str]] = {
    "RetroCreatePlaylist": (
        "RetroCreatePlaylist",
        "same check (the playlist's songs, in order); the owner's older playlists are seeded "
        "and guarded, only one playlist may be added, and changing the playing queue fails"),
    "RetroPlayingQueue": (
        "RetroPlayingQueue",
        "same check (the queue's titles equal the list, in order); the queue starts empty "
        "and may pass through any value (playing songs), playlists are guarded"),
    "RetroPlaylistDuration": (
        "RetroPlaylistDuration",
        "a playlist of that name whose songs are on the phone and add up to 45-50 minutes; "
        "exactly one playlist added, the queue and the owner's playlists guarded"),
    "RetroSavePlaylist": (
        "RetroSavePlaylist",
        "one criterion per part (the ordered playlist; <name>.m3u in Download), so progress "
        "is AndroidWorld's 0/0.5/1 fraction and the reward needs both; nothing else may "
        "change"),
    "VlcCreatePlaylist": (
        "VlcCreatePlaylist",
        "same check (the playlist's file names, in order) on VLC's own data instead of its "
        "media database; decoy videos and an older playlist are seeded and guarded"),
    "VlcCreateTwoPlaylists": (
        "VlcCreateTwoPlaylists",
        "one criterion per playlist, so progress is AndroidWorld's 0/0.5/1 and the reward "
        "needs both; exactly two playlists may be added"),
    "AudioRecorderRecordAudio": (
        "AudioRecorderRecordAudio",
        "exactly one new non-empty .m4a in /sdcard/Recordings; older recordings are seeded "
        "there (AndroidWorld clears the folder) and deleting or renaming them fails; a "
        "recording lasts from record to stop in phone time (each action is a second)"),
    "AudioRecorderRecordAudioWithFileName": (
        "AudioRecorderRecordAudioWithFileName",
        "the name is given without the extension and the file must be <name>.m4a (the app "
        "adds .m4a; AndroidWorld's name already ends in .m4a); one recording only, the "
        "older ones guarded"),
    "CameraTakePhoto": (
        "CameraTakePhoto",
        "exactly one new .jpg in DCIM/Camera; older photos and videos are seeded there "
        "(AndroidWorld clears the folder) and guarded; also a real-phone template"),
    "CameraTakeVideo": (
        "CameraTakeVideo",
        "exactly one new .mp4 in DCIM/Camera (photos and videos share the folder, as on "
        "Android); older media guarded; also a real-phone template"),
}
